/**
 * Reports the content's height whenever it changes: measured on the content element (never the document, whose
 * height follows the iframe's own and would loop), rounded up, and only when it moves by a whole pixel or more.
 */
export function watchContentHeight(content: Element, report: (height: number) => void): () => void {
  let last = -1;
  const measure = (): void => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (Math.abs(height - last) < 1) return;
    last = height;
    report(height);
  };
  const observer = new ResizeObserver(measure);
  observer.observe(content);
  measure();
  return () => {
    observer.disconnect();
  };
}
