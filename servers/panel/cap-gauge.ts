import { formatPercent } from './answer-texts.js';
import { capLevel } from './cap-meter.js';

// The Monotributo tab's gauge: the 12 months' billing against the category's cap and against
// K's, as two meters of an SVG the template draws (client-answer-views.ts). Each meter's scale
// runs to 125 % of its cap (a bar past it stays at the end), with marks at 80 % (near) and
// 100 % (the cap). Geometry and escaped texts only: colours come from the stylesheet by class.

const internals = {
    width: 640,
    rowHeight: 64,
    left: 8,
    right: 8,
    barTop: 24,
    barHeight: 18,
    scale: 1.25,

    round: (value: number): number => Math.round(value * 10) / 10
};

interface Meter {
    label: string;
    use: number;
}

export const capGauge = (meters: readonly Meter[]) => {

    const { width, rowHeight, left, right, barTop, barHeight, scale } = internals;
    const span = width - left - right;
    const x = (ratio: number): number => internals.round(left + Math.min(scale, Math.max(0, ratio)) / scale * span);
    return {
        width,
        height: rowHeight * meters.length,
        meters: meters.map((meter, index) => {

            const top = index * rowHeight;
            const value = formatPercent(meter.use);
            return {
                label: `${meter.label}: ${value}`,
                labelY: top + 16,
                labelX: left,
                track: { x: left, y: top + barTop, width: span, height: barHeight },
                fill: { x: left, y: top + barTop, width: internals.round(x(meter.use) - left), height: barHeight, level: capLevel(meter.use) },
                marks: [0.8, 1].map((ratio) => ({
                    x: x(ratio), y1: top + barTop - 4, y2: top + barTop + barHeight + 4, label: formatPercent(ratio), labelY: top + barTop + barHeight + 16
                }))
            };
        })
    };
};
