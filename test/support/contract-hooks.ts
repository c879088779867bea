import { contractSummary, takeViolations } from './contract.js';
import { runLogLeaks, runLogLineCount, runLogPath } from './run-log.js';

// Root hooks (see .mocharc.json): the test during which a response broke the OpenAPI
// contract fails, and the run ends with what the suite checked.
export const mochaHooks = {
    afterEach() {

        const violations = takeViolations();
        if (violations.length) {
            throw new Error(`Respuestas fuera del contrato OpenAPI:\n  ${violations.join('\n  ')}`);
        }
    },

    afterAll() {

        // A full run's logs must hold no token, key or Authorization value.
        const leaks = runLogLeaks();
        if (leaks.length) {
            throw new Error(`Secretos en los logs de la corrida (${runLogPath}):\n  ${leaks.slice(0, 20).join('\n  ')}`);
        }

        const lines = runLogLineCount();
        if (lines) {
            process.stdout.write(`\n  Logs de la corrida: ${lines} líneas en ${runLogPath}, sin tokens, claves ni valores de Authorization.\n`);
        }

        const { checked, unexercised } = contractSummary();
        if (checked) {
            process.stdout.write(`\n  Contrato OpenAPI: ${checked} respuestas validadas contra /openapi.json.\n`);
            if (unexercised.length) {
                process.stdout.write(`  Respuestas documentadas que ninguna prueba produjo: ${unexercised.length}\n`);
            }
        }
    }
};
