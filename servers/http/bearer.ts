// The token of an `Authorization: Bearer <token>` header (RFC 6750), for the REST API and the
// MCP endpoint alike; null when there is none or the header is something else.
export const bearerToken = (header: unknown): string | null => {

    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    return match ? match[1]! : null;
};
