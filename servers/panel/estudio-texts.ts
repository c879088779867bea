// What the estudio's pages say (es-AR): API tokens, connected assistants and tags. Templates
// take these as values, so they are escaped like everything else a page shows.

export const estudioTexts = {
    tokensTitle: 'Tokens de la API',
    tokensIntro: 'Un token da acceso a la API REST con tus mismos permisos: ve los CUITs que ves vos. Guardalo como una contraseña.',
    tokenName: 'Nombre del token',
    tokenNameHint: 'Para reconocerlo después, por ejemplo "Planilla de vencimientos".',
    createToken: 'Generar token',
    tokenCreated: 'Token generado. Copialo ahora: no se vuelve a mostrar.',
    yourToken: 'Tu token',
    curlLine: 'Probalo con curl',
    copy: 'Copiar',
    copied: 'Copiado.',
    copyFailed: 'No se pudo copiar: seleccioná el texto y copialo.',
    noTokens: 'Todavía no generaste tokens.',
    tokenColumns: { name: 'Nombre', created: 'Creado', actions: 'Acciones' },
    unnamed: '(sin nombre)',
    revoke: 'Revocar',
    revokeTokenTitle: 'Revocar el token',
    revokeTokenQuestion: (name: string): string => `¿Revocar el token «${name}»? Lo que lo use deja de tener acceso en el próximo pedido (401). No se puede deshacer.`,
    confirmRevoke: 'Sí, revocar',
    cancel: 'Cancelar',
    tokenRevoked: 'Token revocado.',
    curl: (baseUrl: string, token: string): string => `curl -H "Authorization: Bearer ${token}" ${baseUrl}/v1/cuits`,

    connectionsTitle: 'Asistentes conectados',
    connectionsIntro: 'Los clientes MCP (asistentes) que autorizaste a leer tus datos. Al revocar uno, sus tokens dejan de funcionar en el acto.',
    noConnections: 'No autorizaste ningún asistente.',
    connectionColumns: { name: 'Asistente', when: 'Autorizado', scope: 'Alcance', actions: 'Acciones' },
    unknownClient: '(cliente sin nombre)',
    revokeConnectionTitle: 'Revocar la conexión',
    revokeConnectionQuestion: (name: string): string => `¿Revocar el acceso de «${name}»? Deja de poder leer tus datos en el acto; para volver a usarlo tendrás que autorizarlo otra vez.`,
    connectionRevoked: 'Conexión revocada.'
};
