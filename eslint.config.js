// `npm run lint` (and CI): typescript-eslint's recommended rules plus the project's layout, which
// is hapi's: 4 spaces, `}` and `else` on their own lines, single quotes, semicolons, no dangling
// commas, a blank line opening every function body of more than one line (hapi's scope-start),
// and lines of at most 160 characters. The layout rules fix themselves (`npm run lint -- --fix`)
// except the line limit, which is broken by hand where the line has a natural joint.
import globals from 'globals';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

const internals = {};


// hapi's scope-start: a function whose body spans lines starts with a blank line, so that its
// first statement is never read as part of its signature. One-line bodies are left alone.
internals.scopeStart = {
    meta: {
        type: 'layout',
        fixable: 'whitespace',
        messages: { blank: 'Missing blank line at the start of the function body.' },
        schema: []
    },
    create(context) {

        const source = context.sourceCode;
        const check = (node) => {

            const body = node.body;
            if (body.type !== 'BlockStatement' || body.body.length === 0 || body.loc.start.line === body.loc.end.line) {
                return;
            }

            const open = source.getFirstToken(body);
            const first = source.getTokenAfter(open, { includeComments: true });
            if (first.loc.start.line - open.loc.end.line < 2) {
                context.report({ node: first, messageId: 'blank', fix: (fixer) => fixer.insertTextAfter(open, '\n') });
            }
        };

        return { FunctionDeclaration: check, FunctionExpression: check, ArrowFunctionExpression: check };
    }
};


export default tseslint.config(
    {
        ignores: ['dist/**', 'data/**', 'test-artifacts/**', 'coverage/**', 'node_modules/**', 'test/fixtures/**']
    },
    ...tseslint.configs.recommended,
    {
        files: ['**/*.{ts,js,cjs,mjs}'],
        languageOptions: {
            ecmaVersion: 2023,
            sourceType: 'module',
            globals: { ...globals.node }
        },
        linterOptions: { reportUnusedDisableDirectives: 'error' },
        plugins: {
            '@stylistic': stylistic,
            hapi: { rules: { 'scope-start': internals.scopeStart } }
        },
        rules: {
            'hapi/scope-start': 'error',

            '@stylistic/indent': ['error', 4, { SwitchCase: 1 }],
            '@stylistic/brace-style': ['error', 'stroustrup', { allowSingleLine: true }],
            '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
            '@stylistic/semi': ['error', 'always'],
            '@stylistic/comma-dangle': ['error', 'never'],
            '@stylistic/comma-spacing': 'error',
            '@stylistic/key-spacing': 'error',
            '@stylistic/keyword-spacing': 'error',
            '@stylistic/space-before-blocks': 'error',
            '@stylistic/space-infix-ops': 'error',
            '@stylistic/arrow-parens': ['error', 'always'],
            '@stylistic/arrow-spacing': 'error',
            '@stylistic/object-curly-spacing': ['error', 'always'],
            '@stylistic/array-bracket-spacing': ['error', 'never'],
            '@stylistic/space-before-function-paren': ['error', { anonymous: 'always', named: 'never', asyncArrow: 'always' }],
            '@stylistic/no-trailing-spaces': 'error',
            '@stylistic/eol-last': 'error',
            '@stylistic/no-tabs': 'error',
            '@stylistic/no-multiple-empty-lines': ['error', { max: 2, maxBOF: 0, maxEOF: 0 }],
            '@stylistic/max-len': ['error', {
                code: 160,
                tabWidth: 4,
                ignoreUrls: true,
                ignoreRegExpLiterals: true,
                ignoreStrings: true,
                ignoreTemplateLiterals: true
            }],

            'curly': ['error', 'all'],
            'eqeqeq': ['error', 'always', { null: 'ignore' }],
            'no-var': 'error',
            'prefer-const': 'error',
            'object-shorthand': ['error', 'properties'],

            // The compiler already refuses unused locals and parameters (tsconfig.json); `_`
            // names a value kept for its position.
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
            // hapi's module augmentation (`interface UserCredentials extends Principal {}`).
            '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }]
        }
    },
    {
        files: ['**/*.cjs'],
        languageOptions: { sourceType: 'commonjs' },
        rules: { '@typescript-eslint/no-require-imports': 'off' }
    },
    {
        // Tests read answers whose shape is the point of the test (JSON from a child process or
        // a socket), and chai's assertions are property reads (`expect(x).to.be.true`).
        files: ['test/**/*.ts'],
        languageOptions: { globals: { ...globals.node, ...globals.mocha } },
        rules: {
            '@typescript-eslint/no-explicit-any': 'off',
            '@typescript-eslint/no-unused-expressions': 'off'
        }
    }
);
