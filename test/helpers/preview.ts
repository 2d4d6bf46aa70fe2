/**
 * The preview's contract, written down independently of the renderer: the elements it may
 * emit (`img` only with `images: true`).
 */
export const PREVIEW_ELEMENTS: ReadonlySet<string> = new Set(
  "div span p h1 h2 h3 h4 h5 h6 ul ol li pre code blockquote table thead tbody tr th td em strong del a br hr img".split(
    " ",
  ),
);
