import { describe, expect, it } from 'vitest';
import { sharedLitExports, sharedModulePaths } from './shared-module-paths.ts';
import { sharedModules } from './shared-modules.ts';

describe('sharedModules', () => {
  it('gives the lazy parts exactly the modules the build maps to it', () => {
    expect(Object.keys(sharedModules).sort()).toEqual([...sharedModulePaths].sort());
    for (const module of Object.values(sharedModules)) expect(Object.keys(module).length).toBeGreaterThan(0);
  });

  it('gives the parts exactly the Lit exports the build lets them import, each defined', () => {
    expect(Object.keys(sharedModules.lit).sort()).toEqual([...sharedLitExports].sort());
    for (const value of Object.values(sharedModules.lit)) expect(value).toBeDefined();
  });
});
