import '../../src/ui/operator.css';
import { chromeUiPorts } from '../../src/ui/chrome-ports';
import { mountPopup } from '../../src/ui/popup-page';

// The action popup: recorder state refreshed every second while it is open.
mountPopup(document.getElementById('root')!, chromeUiPorts());
