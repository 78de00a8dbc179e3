// Text made safe for HTML and SVG: everything a report renders from a results file goes through here.
export const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A name made safe as one segment of a relative link: percent-encoded, so that no '/', ':' or '..' from a results
 * file can make a link leave the reports or name a scheme (`javascript:`). '@' and '+' stay, as the file names have them.
 */
export const urlPart = (name: string) => encodeURIComponent(name).replace(/%40/g, '@').replace(/%2B/g, '+').replace(/^\.+$/, (dots) => dots.replace(/\./g, '%2E'));

/** Text safe inside a Markdown table cell and as inline text: no raw HTML, no column breaks. */
export const md = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\n/g, ' ');
