/**
 * Loads data for a component: the result, the error (an ApiError with the envelope's text), a
 * loading flag and `reload`. Stale answers (deps changed meanwhile, unmount) are dropped.
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export interface ApiState<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Loads again; `quiet` keeps the current data on screen without a spinner (polling). */
  readonly reload: (quiet?: boolean) => void;
}

export function useApi<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  deps: DependencyList,
): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(load !== null);
  const [tick, setTick] = useState(0);
  const quietRef = useRef(false);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const fn = loadRef.current;
    if (!fn) {
      setData(undefined);
      setError(null);
      setLoading(false);
      return;
    }
    const ctrl = new AbortController();
    if (!quietRef.current) setLoading(true);
    quietRef.current = false;
    fn(ctrl.signal).then(
      (value) => {
        if (ctrl.signal.aborted) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => ctrl.abort();
    // The caller's deps decide when to load; `load` itself is read through a ref.
  }, [...deps, tick]);

  const reload = useCallback((quiet = false) => {
    quietRef.current = quiet;
    setTick((n) => n + 1);
  }, []);
  return { data, error, loading, reload };
}
