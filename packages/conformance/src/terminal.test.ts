// The status line on a terminal: it updates in place, stays below every other line, and never wraps.
import { describe, expect, it } from 'vitest';
import { terminalIo } from './terminal.js';

/** A terminal's stderr and stdout as one screen, written in order; `columns` wide. */
function screen(columns = 80) {
  const written: string[] = [];
  const io = terminalIo({ out: (t) => void written.push(`out:${t}`), err: (t) => void written.push(t) }, () => columns);
  return { io, written };
}

describe('terminalIo', () => {
  it('replaces the status line in place, and removes it with an empty one', () => {
    const { io, written } = screen();
    io.status!('[0/2 done]');
    io.status!('[1/2 done]');
    io.status!('');
    expect(written).toEqual(['[0/2 done]', '\r\x1b[K', '[1/2 done]', '\r\x1b[K']);
  });

  it('writes other lines above the status line, and shows it again below them', () => {
    const { io, written } = screen();
    io.err('installing\n');
    io.status!('[0/2 done]');
    io.err('lg@1.0 done\n');
    io.out('a table\n');
    expect(written).toEqual(['installing\n', '[0/2 done]', '\r\x1b[K', 'lg@1.0 done\n', '[0/2 done]', '\r\x1b[K', 'out:a table\n', '[0/2 done]']);
  });

  it('does not put the status line on the end of a line not yet ended', () => {
    const { io, written } = screen();
    io.err('half');
    io.status!('[0/2 done]');
    expect(written).toEqual(['half', '\n', '[0/2 done]']);
  });

  it('cuts a status line to the width of the terminal, so that it cannot wrap', () => {
    const { io, written } = screen(20);
    io.status!('[0/2 done] running lg@1.0 a memory replay');
    expect(written).toEqual(['[0/2 done] running…']);
    expect(written[0]!.length).toBe(19);
  });

  it('takes a terminal that does not say its width to be 80 wide', () => {
    const { io, written } = screen(0);
    io.status!('x'.repeat(100));
    expect(written[0]).toBe(`${'x'.repeat(78)}…`);
  });
});
