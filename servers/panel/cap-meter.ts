import { answerTexts, formatPercent } from './answer-texts.js';

// A monotributista's use of its category's cap as la cartera shows it: the es-AR percent and a
// small bar's width (the bar's 60 px are the whole cap; past it the bar stays full), levelled as
// the API's risks are (≥ 80 % near, past 100 % over). Colours come from the stylesheet by class.

interface CapUse {
    usoTope: number | null;
    categoria: string | null;
}

const internals = {
    width: 60,
    near: 0.8
};

export const capLevel = (use: number): 'ok' | 'near' | 'over' => (use > 1 ? 'over' : use >= internals.near ? 'near' : 'ok');

export const capMeter = (summary: CapUse | undefined) => {

    if (!summary) {
        return null;
    }

    if (summary.usoTope === null || summary.categoria === null) {
        return { label: answerTexts.noCategory, title: answerTexts.noCategory, width: 0, level: 'ok' as const };
    }

    const label = formatPercent(summary.usoTope);
    return {
        label,
        title: answerTexts.capOf(label, summary.categoria),
        width: Math.round(Math.min(1, Math.max(0, summary.usoTope)) * internals.width),
        level: capLevel(summary.usoTope)
    };
};
