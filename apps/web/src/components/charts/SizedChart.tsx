/**
 * echarts-for-react's chart, its size following its box. The library's own size sensor drops its
 * first report (so as not to cut a first animation short), and that report is the one telling of a
 * change between the chart's creation, at the box's size then, and the sensor's start: a window
 * narrowed or widened in that moment left the chart at its first width, wider than its card or
 * narrower, for good (the browser tests' shots caught it). Here an observer of our own resizes the
 * chart on every change of its box, and once when it is ready.
 */
import { useEffect, useRef, type ComponentProps } from 'react';
import ReactEChartsCore from 'echarts-for-react/esm/core';

type Props = Omit<ComponentProps<typeof ReactEChartsCore>, 'autoResize'>;
type Instance = Parameters<NonNullable<Props['onChartReady']>>[0];

/** To its box ('auto': the library creates the chart with its first width and height as fixed sizes). */
const fit = (chart: Instance | undefined) => {
  if (chart && !chart.isDisposed()) chart.resize({ width: 'auto', height: 'auto' });
};

export default function SizedChart({ onChartReady, ...props }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Instance>(undefined);
  useEffect(() => {
    const observer = new ResizeObserver(() => fit(chart.current));
    observer.observe(box.current!);
    return () => observer.disconnect();
  }, []);
  const ready = (instance: Instance) => {
    chart.current = instance;
    fit(instance);
    onChartReady?.(instance);
  };
  return (
    <div ref={box}>
      <ReactEChartsCore {...props} autoResize={false} onChartReady={ready} />
    </div>
  );
}
