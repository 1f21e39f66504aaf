import * as React from 'react';

/** What a prop written as an attribute may be. */
export type AttributeValue = string | number | boolean | null | undefined;

/**
 * A ref for a custom element that writes `attributes` onto it before the element's first update (a layout effect),
 * and again when a value changes: for what an element reads as attributes (`getAttribute`) rather than properties.
 * `undefined`, `null`, `false` and a name no longer given remove the attribute; `true` sets it empty. `forwarded`
 * gets the element too.
 */
export function useAttributes<Element extends HTMLElement>(
  forwarded: React.ForwardedRef<Element>,
  attributes: Readonly<Record<string, AttributeValue>>,
): React.RefCallback<Element> {
  const node = React.useRef<Element | null>(null);
  const written = React.useRef<readonly string[]>([]);
  const latest = React.useRef(attributes);
  latest.current = attributes;
  const key = JSON.stringify(attributes);
  React.useLayoutEffect(() => {
    const element = node.current;
    if (!element) return;
    const next = latest.current;
    for (const name of written.current) if (!(name in next)) element.removeAttribute(name);
    for (const [name, value] of Object.entries(next)) {
      if (value === undefined || value === null || value === false) element.removeAttribute(name);
      else element.setAttribute(name, value === true ? '' : String(value));
    }
    written.current = Object.keys(next);
  }, [key]);
  return React.useCallback(
    (element: Element | null) => {
      node.current = element;
      if (typeof forwarded === 'function') forwarded(element);
      else if (forwarded) forwarded.current = element;
    },
    [forwarded],
  );
}
