// The MCP front end's own texts: its transport and its tool list. The tools' arguments speak
// with the contract's messages (core/domain/messages.ts).

export const mcpMessages = {
    postOnly: 'El endpoint MCP solo acepta POST (transporte HTTP sin estado).',
    insufficientScope: "El token de acceso no incluye el alcance 'service:read' que requiere el endpoint MCP.",
    unknownTool: (name: string): string => `No existe la herramienta '${name}'. Las herramientas son listar_cuits, listar_mis_comprobantes, consultar_sct, consultar_ccma y listar_dfe.`
} as const;
