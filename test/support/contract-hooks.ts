import { contractSummary, takeViolations } from './contract.js';

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

        const { checked, unexercised } = contractSummary();
        if (checked) {
            process.stdout.write(`\n  Contrato OpenAPI: ${checked} respuestas validadas contra /openapi.json.\n`);
            if (unexercised.length) {
                process.stdout.write(`  Respuestas documentadas que ninguna prueba produjo: ${unexercised.length}\n`);
            }
        }
    }
};
