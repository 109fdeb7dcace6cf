// The state disk after the disk-full minute: every file the bridge had before it is still there,
// and every JSON file (and every line of a JSON-lines file) parses.
export function checkStateFiles(before, after) {
  const lost = [...before.keys()].filter((f) => !after.has(f) && !ephemeral(f));
  const corrupt = [];
  for (const [f, text] of after) {
    if (f.endsWith('.json')) {
      try {
        JSON.parse(text);
      } catch {
        corrupt.push(f);
      }
    } else if (f.endsWith('.jsonl')) {
      const bad = text.split('\n').filter((l) => l.trim()).filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      if (bad.length) corrupt.push(`${f} (${bad.length} lines)`);
    }
  }
  return { before: before.size, after: after.size, lost, corrupt, files: [...after.keys()].sort() };
}

/** Files that come and go by design: bridge.json (a running bridge's, removed as it stops), temporary files of atomic writes. */
function ephemeral(f) {
  return f === 'bridge.json' || /\.tmp(\.|$)|\.lock$|\.pid$/.test(f);
}
