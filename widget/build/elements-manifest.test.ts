import { describe, expect, it } from 'vitest';
import { tidyManifest } from './elements-manifest.ts';

describe('tidyManifest', () => {
  it('drops nameless events, private members, and the internal members and attributes of the named tag only', () => {
    const manifest = {
      modules: [
        {
          declarations: [
            {
              tagName: 'fan-poll',
              attributes: [
                { name: 'poll-id', fieldName: 'pollId' },
                { name: 'fan', fieldName: 'fan' },
              ],
              members: [
                { name: 'pollId' },
                { name: 'fan' },
                { name: 'announce' },
                { name: '#live', privacy: 'private' },
              ],
              events: [{}, { name: 'fan-poll-ready' }],
            },
            { tagName: 'other', members: [{ name: 'fan' }] },
          ],
        },
      ],
    };
    expect(tidyManifest(manifest, { 'fan-poll': ['fan', 'announce'] }).modules[0]!.declarations).toEqual([
      {
        tagName: 'fan-poll',
        attributes: [{ name: 'poll-id', fieldName: 'pollId' }],
        members: [{ name: 'pollId' }],
        events: [{ name: 'fan-poll-ready' }],
      },
      { tagName: 'other', members: [{ name: 'fan' }] },
    ]);
  });
});
