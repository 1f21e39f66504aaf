// The configurator page's script: defines its one element (the widget itself is loaded from the proxy at run time).
import { FanPollsConfigurator } from './fan-polls-configurator.ts';

if (!customElements.get('fan-polls-configurator'))
  customElements.define('fan-polls-configurator', FanPollsConfigurator);
