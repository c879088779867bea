import type { Command, CommanderError, Option, Argument } from 'commander';
import { Help } from 'commander';

// Commander speaks English; the CLI speaks Spanish like the rest of the product. Its help
// (titles, usage words, defaults) and its usage errors, translated here by error code.

const internals = {
    english: Help.prototype,

    titles: {
        'Usage:': 'Uso:',
        'Options:': 'Opciones:',
        'Commands:': 'Comandos:',
        'Arguments:': 'Argumentos:',
        'Global Options:': 'Opciones globales:'
    } as Record<string, string>,

    words: (text: string): string => text.replace(/\[options\]/g, '[opciones]').replace(/\[command\]/g, '[comando]'),

    extras: (text: string): string => text.replace(/\(default: /, '(por omisión: ').replace(/choices: /, 'valores: ').replace(/, default: /, ', por omisión: '),

    // Commander's suggestion, on a line of its own: "(Did you mean create?)".
    suggestion(message: string): string {

        const match = /\(Did you mean (?:one of )?(.+)\?\)/.exec(message);
        return match ? ` (¿quisiste decir ${match[1]}?)` : '';
    },

    errors: {
        'commander.missingMandatoryOptionValue': (message: string) => `falta la opción obligatoria ${/'[^']+'/.exec(message)?.[0] ?? ''}`,
        'commander.unknownCommand': (message: string) => `comando desconocido ${/'[^']+'/.exec(message)?.[0] ?? ''}${internals.suggestion(message)}`,
        'commander.unknownOption': (message: string) => `opción desconocida ${/'[^']+'/.exec(message)?.[0] ?? ''}${internals.suggestion(message)}`,
        'commander.missingArgument': (message: string) => `falta el argumento obligatorio ${/'[^']+'/.exec(message)?.[0] ?? ''}`,
        'commander.optionMissingArgument': (message: string) => `la opción ${/'[^']+'/.exec(message)?.[0] ?? ''} necesita un valor`,
        'commander.excessArguments': (message: string) => {

            const [, expected, received] = /Expected (\d+) arguments? but got (\d+)/.exec(message) ?? [];
            return `demasiados argumentos${expected ? `: se esperaba${expected === '1' ? '' : 'n'} ${expected} y llegaron ${received}` : ''}`;
        },
        'commander.conflictingOption': (message: string) => `opciones incompatibles: ${(message.match(/'[^']+'/g) ?? []).join(' y ')}`
    } as Record<string, (message: string) => string>
};

// Settings given to the program before its subcommands exist; they inherit them.
export const speakSpanish = (program: Command): Command => {

    return program
        .helpOption('-h, --help', 'muestra la ayuda del comando')
        .helpCommand('help [comando...]', 'muestra la ayuda de un comando o subcomando (help sync worker)')
        .configureHelp({
            styleTitle: (title: string) => internals.titles[title] ?? title,
            commandUsage(this: Help, command: Command) {

                return internals.words(internals.english.commandUsage.call(this, command));
            },
            subcommandTerm(this: Help, command: Command) {

                return internals.words(internals.english.subcommandTerm.call(this, command));
            },
            optionDescription(this: Help, option: Option) {

                return internals.extras(internals.english.optionDescription.call(this, option));
            },
            argumentDescription(this: Help, argument: Argument) {

                return internals.extras(internals.english.argumentDescription.call(this, argument));
            }
        });
};

// One Spanish line for a commander usage error; other errors keep their own message.
// Written as a sentence, like the product's other messages.
export const usageMessage = (err: CommanderError): string => {

    const message = err.message.replace(/^error: /, '');
    const line = internals.errors[err.code]?.(message) ?? message.split('\n')[0]!;
    return `${line.charAt(0).toUpperCase()}${line.slice(1)}${line.endsWith('.') ? '' : '.'}`;
};
