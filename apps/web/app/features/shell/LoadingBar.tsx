import { useEffect, useRef, useState } from 'react';
import { useFetchers, useNavigation } from 'react-router';

/**
 * Spec §2: a striped bar (50vw) that runs towards 70 % while a navigation or data load is under way,
 * then completes to 100 % and fades out.
 */
export function LoadingBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle');
  const [progress, setProgress] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    clearTimeout(timer.current);
    if (busy) {
      setProgress(0);
      // Next frame, so the width transition from 0 to 70 % runs.
      timer.current = setTimeout(() => setProgress(70), 16);
    } else {
      setProgress((current) => (current === null ? null : 100));
      timer.current = setTimeout(() => setProgress(null), 400);
    }
    return () => clearTimeout(timer.current);
  }, [busy]);

  if (progress === null) return null;
  return (
    <div
      className="loading-bar-track"
      role="progressbar"
      aria-label="Cargando"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      data-testid="loading-bar"
    >
      <div
        className="loading-bar"
        style={{
          width: `${progress}%`,
          transition: progress === 70 ? 'width 3s cubic-bezier(0.1, 0.7, 0.3, 1)' : 'width 0.3s ease-out',
        }}
      />
    </div>
  );
}
