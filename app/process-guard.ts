import type { Logger } from 'pino';

// The last line of defence of a serving process: an error that nothing caught (a library
// failing inside its own callbacks while answering a request) is logged and the process
// keeps serving. Without it Node ends the process, and every other request and the sync
// worker with it; no request may do that.
export const guardProcess = (logger: Logger): void => {

    process.on('uncaughtException', (err) => logger.error({ err }, 'uncaught exception'));
    process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
};
