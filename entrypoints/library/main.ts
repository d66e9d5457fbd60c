import '../../src/ui/operator.css';
import { chromeUiPorts } from '../../src/ui/chrome-ports';
import { mountLibrary } from '../../src/ui/library-page';

// library.html (an unlisted page, linked from the popup and the settings): every stored bundle.
mountLibrary(document.getElementById('root')!, chromeUiPorts()).catch((error: unknown) => {
  console.error('[afr] library page failed', error);
  document.body.append(String(error));
});
