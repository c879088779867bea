import type { SyncProgress } from '../app/worker.js';
import type { CliIo } from './io.js';
import { lazy } from './lazy.js';
import type { Output } from './run.js';

// Progress on a terminal only; nothing on stdout besides the final result.
export const syncSpinner = async (io: CliIo, output: Output) => {

    // A terminal of zero columns (some pseudo-terminals) would make ora redraw endlessly.
    const enabled = Boolean(io.stderr.isTTY) && (io.stderr.columns ?? 0) > 0 && !output.json;
    const { default: ora } = await lazy.spinner();
    const spinner = ora({ text: 'Sincronizando…', isEnabled: enabled, isSilent: !enabled, stream: io.stderr as NodeJS.WritableStream }).start();
    return {
        update(progress: SyncProgress) {

            spinner.text = `Sincronizando: ${progress.done}/${progress.total} CUIT${progress.failed ? ` · ${progress.failed} con fallas` : ''}`;
        },
        stop: () => spinner.stop()
    };
};
