import { describe, expect, it } from 'vitest';
import { sharedModulePaths } from './shared-module-paths.ts';
import { sharedModules } from './shared-modules.ts';

describe('sharedModules', () => {
  it('gives the lazy parts exactly the modules the build maps to it', () => {
    expect(Object.keys(sharedModules).sort()).toEqual([...sharedModulePaths].sort());
    for (const module of Object.values(sharedModules)) expect(Object.keys(module).length).toBeGreaterThan(0);
  });
});
