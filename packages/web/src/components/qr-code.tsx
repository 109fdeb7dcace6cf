/** A QR code drawn from its modules (rows of 1 and 0, made by the bridge), dark on light in either theme, with its quiet zone. */
export function QrCode({ rows, label, className }: { readonly rows: readonly string[]; readonly label: string; readonly className: string }) {
  const n = rows.length;
  const quiet = 4;
  let d = '';
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === '1') d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  });
  return (
    <svg className={className} role="img" aria-label={label} viewBox={`0 0 ${n + 2 * quiet} ${n + 2 * quiet}`} shapeRendering="crispEdges">
      <rect width={n + 2 * quiet} height={n + 2 * quiet} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
