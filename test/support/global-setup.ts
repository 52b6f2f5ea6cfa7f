/** Runs once before the e2e projects; nothing shared yet. */
export default function setup(): void {}
