// Which preset applies, and why. The sandbox's development defaults only when chosen (`FAN_POLLS_PRESET=sandbox`,
// which `npm start` sets); production's rules otherwise, and always with `NODE_ENV=production`. Never the URLs.
import { proxyOptions } from './config-table.ts';
import type { Preset } from './option-kinds.ts';
import { readOption, type ConfigSource } from './read-options.ts';

export interface PresetChoice {
  readonly preset: Preset;
  /** Why, for the start banner: the setting that chose it, or that nothing did. */
  readonly reason: string;
  /** False when nothing chose it (production, the default). */
  readonly chosen: boolean;
  /** A choice that contradicts itself (`NODE_ENV=production` with `FAN_POLLS_PRESET=sandbox`), named. */
  readonly problems: readonly string[];
}

const presetVariable = proxyOptions.preset.env;

/** Given when start-up fails with no preset chosen: the way to the local sandbox. */
export const sandboxHint = `For local development against the sandbox, set ${presetVariable}=sandbox (npm start does).`;

/** The preset `source` chooses; a value the setting refuses is reported by the table's reader, here production. */
export function choosePreset(source: ConfigSource): PresetChoice {
  const setting = readOption(proxyOptions.preset, source, 'production');
  const chosenBySetting = setting.set && setting.problems.length === 0;
  const nodeProduction = source.NODE_ENV?.trim() === 'production';
  if (chosenBySetting && setting.value === 'sandbox' && nodeProduction)
    return {
      preset: 'production',
      reason: 'NODE_ENV=production',
      chosen: true,
      problems: [
        `${presetVariable}=sandbox cannot be used with NODE_ENV=production: unset one of them (production needs its own settings).`,
      ],
    };
  if (chosenBySetting) {
    const reasons = [
      `${presetVariable}=${setting.value}`,
      ...(nodeProduction ? ['NODE_ENV=production'] : []),
    ];
    return { preset: setting.value, reason: reasons.join(', '), chosen: true, problems: [] };
  }
  if (nodeProduction)
    return { preset: 'production', reason: 'NODE_ENV=production', chosen: true, problems: [] };
  return {
    preset: 'production',
    reason: `the default: neither ${presetVariable} nor NODE_ENV=production is set`,
    chosen: false,
    problems: [],
  };
}

/** `sandbox (FAN_POLLS_PRESET=sandbox)`: the preset and why, as a start banner says it; `setBy` names who set it. */
export function presetSummary(choice: PresetChoice, setBy?: string): string {
  return `${choice.preset} (${choice.reason}${setBy === undefined ? '' : `, set by ${setBy}`})`;
}
