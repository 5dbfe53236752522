import type { DailySpendDay } from '@svc/contracts';
import { formatUsd } from './components';

// SVG user units: the drawing scales to its container (CSS width 100%).
const WIDTH = 720;
const HEIGHT = 220;
const PAD_LEFT = 56;
const PAD_BOTTOM = 28;
const PAD_TOP = 12;

/** A round axis top at or above `max` (1, 2 or 5 times a power of ten). */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/**
 * Spend per UTC day as bars, drawn on the server (no script, CSP-safe). Each bar carries its day and
 * amount in a <title> (the browser's tooltip) and in data attributes; a text table follows for
 * screen readers and text browsers.
 */
export function SpendChart(props: { readonly days: readonly DailySpendDay[] }) {
  const values = props.days.map((day) => Number(day.spent_usd));
  const top = niceCeiling(Math.max(0, ...values));
  const plotWidth = WIDTH - PAD_LEFT;
  const plotHeight = HEIGHT - PAD_TOP - PAD_BOTTOM;
  const slot = plotWidth / Math.max(1, props.days.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => PAD_TOP + plotHeight - (value / top) * plotHeight;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label="Spend per day over the last 30 days"
        data-testid="spend-chart"
        xmlns="http://www.w3.org/2000/svg"
      >
        {[0, 0.5, 1].map((fraction) => (
          <g key={fraction}>
            <line class="axis" x1={PAD_LEFT} x2={WIDTH} y1={y(top * fraction)} y2={y(top * fraction)} />
            <text x={PAD_LEFT - 6} y={y(top * fraction) + 3} text-anchor="end">
              {formatUsd((top * fraction).toFixed(6))}
            </text>
          </g>
        ))}
        {/* A date under today's bar and every 7th before it. */}
        {props.days.map((day, index) => {
          const value = values[index] ?? 0;
          const x = PAD_LEFT + index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.date}>
              <rect
                class="bar"
                x={x.toFixed(1)}
                y={y(value).toFixed(1)}
                width={barWidth.toFixed(1)}
                height={(PAD_TOP + plotHeight - y(value)).toFixed(1)}
                data-date={day.date}
                data-usd={day.spent_usd}
              >
                <title>{`${day.date}: ${formatUsd(day.spent_usd)} (${day.runs} runs)`}</title>
              </rect>
              {(props.days.length - 1 - index) % 7 === 0 ? (
                // Today's label ends at its bar's right edge: centred, it would run past the drawing.
                <text
                  x={(index === props.days.length - 1 ? x + barWidth : x + barWidth / 2).toFixed(1)}
                  y={HEIGHT - 10}
                  text-anchor={index === props.days.length - 1 ? 'end' : 'middle'}
                >
                  {day.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">Spend per UTC day, last {props.days.length} days.</figcaption>
    </figure>
  );
}
