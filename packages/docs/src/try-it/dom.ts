// The page: finding and making elements, and whether a relay serves it.

export const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T | null => root.querySelector<T>(selector);
export const $$ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => Array.from(root.querySelectorAll<T>(selector));

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string; href?: string } = {}, ...children: Node[]) {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.href !== undefined) (node as HTMLAnchorElement).href = props.href;
  node.append(...children);
  return node;
}

/** Served over HTTP(S) by a relay (or anything else); from file:// there is no relay to call. */
export const served = location.protocol === "http:" || location.protocol === "https:";
export const OFFLINE = "Try it needs this page served by a relay: it sends the request to the server the page came from (POST /). Start one (see Running a relay) and open its /docs/.";
