import '../../src/ui/operator.css';
import { chromeUiPorts } from '../../src/ui/chrome-ports';
import { mountSettingsPage } from '../../src/ui/settings-page';

// The options page (opened in a tab): every setting, validated with the API's schema before saving.
mountSettingsPage(document.getElementById('root')!, chromeUiPorts()).catch((error: unknown) => {
  console.error('[afr] settings page failed', error);
  document.body.append(String(error));
});
