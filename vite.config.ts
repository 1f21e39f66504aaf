// One Vite config, one build per mode: `widget`, `extension-chrome`, `extension-firefox`, `server`, `package`,
// `configurator`, `edge`.
import { defineConfig, type UserConfig } from 'vite';

export default defineConfig(async ({ mode }): Promise<UserConfig> => {
  switch (mode) {
    case 'widget':
      return (await import('./widget/vite.widget.ts')).widgetBuild();
    case 'extension-chrome':
      return (await import('./extension/vite.extension.ts')).extensionBuild('chrome');
    case 'extension-firefox':
      return (await import('./extension/vite.extension.ts')).extensionBuild('firefox');
    case 'server':
      return (await import('./src/vite.server.ts')).serverBuild();
    case 'configurator':
      return (await import('./widget/configurator/vite.configurator.ts')).configuratorBuild();
    case 'edge':
      return (await import('./src/edge/vite.edge.ts')).edgeBuild();
    case 'package':
      return (await import('./widget/package/vite.package.ts')).packageBuild();
    default:
      throw new Error(
        `Unknown build mode "${mode}": use widget, extension-chrome, extension-firefox, server, package, configurator or edge.`,
      );
  }
});
