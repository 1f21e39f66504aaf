// Right-to-left text (Arabic, Hebrew) in the share image. satori shapes each word in its script's direction but lays
// the words of a line out left to right; the drawing lays such text out word by word from the right instead.

/** Hebrew, Arabic and the other right-to-left scripts' letters. */
const rightToLeftLetter =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const letter = /\p{L}/u;

/** The direction of the first letter of `text`, as HTML's `dir="auto"` finds a paragraph's: undefined without one. */
function firstLetterDirection(text: string): 'rtl' | 'ltr' | undefined {
  for (const char of text) {
    if (rightToLeftLetter.test(char)) return 'rtl';
    if (letter.test(char)) return 'ltr';
  }
  return undefined;
}

/** Whether `text` reads from the right: its first letter is of a right-to-left script. */
export function isRightToLeft(text: string): boolean {
  return firstLetterDirection(text) === 'rtl';
}

/**
 * The units a right-to-left paragraph is laid out in from the right, in reading order: each right-to-left word on its
 * own, and each run of left-to-right words (a name in Latin letters, with the score after it) kept whole, in its own
 * order. A word with no letter (a number, a dash) joins the left-to-right run it stands in or follows.
 */
export function rightToLeftUnits(text: string): string[] {
  const units: string[] = [];
  let run: string[] = [];
  let pending: string[] = [];
  const endRun = (): void => {
    if (run.length > 0) units.push(run.join(' '));
    units.push(...pending);
    run = [];
    pending = [];
  };
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const direction = firstLetterDirection(word);
    // A number after left-to-right words reads with them (Unicode's bidi rule W7): "Real Madrid 2 - 1".
    if (direction === 'ltr' || (direction === undefined && run.length > 0 && /\d/.test(word))) {
      run.push(...pending, word);
      pending = [];
    } else if (direction === undefined && run.length > 0) pending.push(word);
    else {
      endRun();
      units.push(word);
    }
  }
  endRun();
  return units;
}

/**
 * A left-to-right text with right-to-left words in it ("Who wins: מכבי חיפה or Hapoel?") in the order satori must lay
 * its words out for them to read right: each run of right-to-left words reversed (a word with no letter between two
 * of them belongs to the run). satori shapes each word in its own direction.
 */
export function leftToRightOrder(text: string): string {
  if (!rightToLeftLetter.test(text)) return text;
  const words = text.split(' ');
  const directions = words.map(firstLetterDirection);
  const ordered: string[] = [];
  let index = 0;
  while (index < words.length) {
    if (directions[index] !== 'rtl') {
      ordered.push(words[index] ?? '');
      index += 1;
      continue;
    }
    // The run: right-to-left words, and letterless ones followed by another right-to-left word.
    let end = index + 1;
    for (let next = end; next < words.length && directions[next] !== 'ltr'; next++)
      if (directions[next] === 'rtl') end = next + 1;
    ordered.push(...words.slice(index, end).reverse());
    index = end;
  }
  return ordered.join(' ');
}
