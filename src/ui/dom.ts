/**
 * DOM building for the operator pages: the viewer's `h`/`append` (every string child becomes a text
 * node; page and bundle text never goes through `innerHTML`).
 */
export { append, h, type Child, type Props } from '../viewer/dom';
