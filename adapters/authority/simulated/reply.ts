import type { IncomingMessage, ServerResponse } from 'node:http';

// How every simulated host reads a request and writes an answer.

type Headers = Record<string, string | string[]>;

export const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, headers: Headers = {}): void => {

    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body);
};

export const html = (
    res: ServerResponse,
    body: string,
    status = 200,
    headers: Headers = {}
): void => send(res, status, body, 'text/html; charset=utf-8', headers);

// Classic ASP pages (CCAM) are latin-1.
export const latin1 = (res: ServerResponse, body: string, status = 200, headers: Headers = {}): void => send(
    res,
    status,
    Buffer.from(body, 'latin1'),
    'text/html; charset=iso-8859-1',
    headers
);

export const json = (res: ServerResponse, body: unknown, status = 200): void => send(res, status, JSON.stringify(body), 'application/json;charset=UTF-8');

export const redirect = (res: ServerResponse, location: string, headers: Headers = {}): void => {

    res.writeHead(302, { location, 'content-length': 0, ...headers });
    res.end();
};

export const cookiesOf = (req: IncomingMessage): Record<string, string> => {

    const result: Record<string, string> = {};
    for (const part of (req.headers.cookie ?? '').split(';')) {
        const index = part.indexOf('=');
        if (index > 0) {
            result[part.slice(0, index).trim()] = part.slice(index + 1).trim();
        }
    }

    return result;
};

export const formOf = async (req: IncomingMessage): Promise<URLSearchParams> => {

    const chunks: Buffer[] = [];
    for await (const chunk of req) {
        chunks.push(chunk as Buffer);
    }

    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

// A host's handler: the request, its answer, the path below the host and the query.
export type Route = (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => Promise<void>;
