/**
 * The height `element` renders at `width` CSS pixels once its card has data: off-screen (hidden, inert), after its
 * `fan-poll-ready` and once its height holds still (a banner takes its card's height a message later). Whole pixels,
 * rounded up; undefined when no card got ready within `timeoutMs`.
 */
export async function measureHeight(
  element: HTMLElement,
  width: number,
  timeoutMs = 10_000,
): Promise<number | undefined> {
  const box = document.createElement('div');
  // CSSOM, not a style attribute: the configurator runs under a strict style-src.
  Object.assign(box.style, {
    position: 'absolute',
    left: '-10000px',
    top: '0',
    width: `${width}px`,
    visibility: 'hidden',
  });
  box.inert = true;
  box.append(element);
  document.body.append(box);
  try {
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        resolve(false);
      }, timeoutMs);
      element.addEventListener(
        'fan-poll-ready',
        () => {
          clearTimeout(timer);
          resolve(true);
        },
        { once: true },
      );
    });
    return ready ? await steadyHeight(element) : undefined;
  } finally {
    box.remove();
  }
}

/** The element's height once two readings 100 ms apart agree (at most 2 s). */
async function steadyHeight(element: HTMLElement): Promise<number> {
  let last = -1;
  for (let attempt = 0; attempt < 20; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const height = Math.ceil(element.getBoundingClientRect().height);
    if (height === last) return height;
    last = height;
  }
  return last;
}
