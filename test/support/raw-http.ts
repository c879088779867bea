import { connect } from 'node:net';

// HTTP as an attacker sends it: bytes written on a TCP connection to 127.0.0.1, whatever
// they are, and the answers read back as the server wrote them, until it closes.

interface RawResponse {
    status: number;
    headers: Record<string, string>;
    body: Buffer;
}

export interface RawExchange {
    responses: RawResponse[];
    // The server closed the connection (rather than the client giving up waiting).
    closed: boolean;
    // Bytes after the last whole response (a partial or unreadable answer).
    rest: Buffer;
}

export interface RawOptions {
    // Give up after this long without the server closing the connection.
    timeoutMs?: number;
    // End the client's side once written (a request cut short, as by a client that left).
    halfClose?: boolean;
    // The request's method, to know that a HEAD answer has no body.
    method?: string;
    // Stop reading once this many whole answers arrived (a connection kept alive).
    answers?: number;
}

const internals = {
    headEnd: Buffer.from('\r\n\r\n'),

    // Whole responses at the start of `data`: status line, headers, then a body framed by
    // Content-Length or chunked encoding.
    parse(data: Buffer, method: string | undefined): { responses: RawResponse[]; rest: Buffer } {

        const responses: RawResponse[] = [];
        let rest = data;
        for (;;) {
            const end = rest.indexOf(internals.headEnd);
            if (end < 0) {
                break;
            }

            const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
            const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
            if (!status) {
                break;
            }

            const headers: Record<string, string> = {};
            for (const line of lines) {
                const colon = line.indexOf(':');
                headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
            }

            const code = Number(status[1]);
            let body = rest.subarray(end + 4);
            let after: Buffer;
            if (method === 'HEAD' || code === 204 || code === 304 || (code >= 100 && code < 200)) {
                after = body;
                body = Buffer.alloc(0);
            }
            else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
                const chunks: Buffer[] = [];
                let offset = 0;
                let complete = false;
                for (;;) {
                    const lineEnd = body.indexOf('\r\n', offset);
                    if (lineEnd < 0) {
                        break;
                    }

                    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
                    if (!Number.isFinite(size) || body.length < lineEnd + 2 + size + 2) {
                        break;
                    }

                    if (size === 0) {
                        offset = lineEnd + 4;
                        complete = true;
                        break;
                    }

                    chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
                    offset = lineEnd + 2 + size + 2;
                }

                if (!complete) {
                    break;
                }

                after = body.subarray(offset);
                body = Buffer.concat(chunks);
            }
            else if (headers['content-length'] !== undefined) {
                const length = Number(headers['content-length']);
                if (body.length < length) {
                    break;
                }

                after = body.subarray(length);
                body = body.subarray(0, length);
            }
            else {
                // Framed by the connection's end.
                after = Buffer.alloc(0);
            }

            if (code >= 200) {
                responses.push({ status: code, headers, body });
            }

            rest = after;
        }

        return { responses, rest };
    }
};

export const rawExchange = (port: number, request: Buffer | string, options: RawOptions = {}): Promise<RawExchange> => {

    return new Promise((resolve) => {

        const chunks: Buffer[] = [];
        const socket = connect({ host: '127.0.0.1', port });
        let closed = false;
        let done = false;
        const finish = () => {

            if (done) {
                return;
            }

            done = true;
            clearTimeout(timer);
            socket.destroy();
            resolve({ ...internals.parse(Buffer.concat(chunks), options.method), closed });
        };

        const timer = setTimeout(finish, options.timeoutMs ?? 10_000);
        socket.on('data', (chunk: Buffer) => {

            chunks.push(chunk);
            if (options.answers && internals.parse(Buffer.concat(chunks), options.method).responses.length >= options.answers) {
                finish();
            }
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {

            closed = true;
            finish();
        });

        socket.write(request, () => options.halfClose && socket.end());
    });
};

// A request's bytes from its parts, as written (no normalization, nothing checked).
export const rawRequest = (method: string, path: string, headers: [string, string][], body: Buffer | string = ''): Buffer => {

    const head = `${method} ${path} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
};
