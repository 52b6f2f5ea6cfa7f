import { Typography } from 'antd';

/** JSON pretty-printed in a scrollable block, with a copy button. */
export function JsonView({ value, maxHeight = 360 }: { value: unknown; maxHeight?: number }) {
  const text = value === undefined ? '—' : JSON.stringify(value, null, 2);
  return (
    <div style={{ position: 'relative' }}>
      <pre
        style={{
          margin: 0,
          padding: '8px 12px',
          maxHeight,
          overflow: 'auto',
          background: 'rgba(0,0,0,0.03)',
          border: '1px solid rgba(5,5,5,0.06)',
          borderRadius: 6,
          fontSize: 12,
          lineHeight: 1.5,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
        }}
      >
        {text}
      </pre>
      {value !== undefined && (
        <Typography.Text copyable={{ text }} style={{ position: 'absolute', top: 4, right: 8 }} />
      )}
    </div>
  );
}
