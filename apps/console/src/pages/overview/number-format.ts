/** How the overview writes its numbers. */
export const percent = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;
export const rounded = (v: number) => String(Math.round(v));
