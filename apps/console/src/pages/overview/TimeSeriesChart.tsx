/**
 * A line chart over time, drawn by ECharts. Only the parts used here are imported (line chart,
 * grid, tooltip, legend, canvas), and this module is loaded lazily with the overview page.
 */
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Series } from './stats-series';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface TimeSeriesChartProps {
  readonly series: readonly Series[];
  readonly format: (value: number) => string;
  readonly height?: number;
  /** Counts: no fractional ticks on the value axis. */
  readonly integer?: boolean;
}

/** Few points: draw their symbols, or a lone point between gaps would not show at all. */
const SPARSE = 48;

export default function TimeSeriesChart({
  series,
  format,
  height = 260,
  integer = false,
}: TimeSeriesChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        animation: false,
        grid: { left: 56, right: 16, top: 36, bottom: 28 },
        legend: { type: 'scroll', top: 0 },
        tooltip: {
          trigger: 'axis',
          valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '—'),
        },
        xAxis: { type: 'time' },
        yAxis: {
          type: 'value',
          minInterval: integer ? 1 : 0,
          axisLabel: { formatter: (v: number) => format(v) },
        },
        series: series.map((s) => ({
          name: s.name,
          type: 'line',
          showSymbol: s.points.filter(([, v]) => v !== null && v !== 0).length <= SPARSE,
          symbolSize: 5,
          connectNulls: false,
          data: s.points,
        })),
      },
      { notMerge: true },
    );
  }, [series, format, integer]);

  return <div ref={el} style={{ width: '100%', height }} />;
}
