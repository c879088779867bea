import type { Principal, WriteChannel } from '../domain/access.js';
import { assertMayWrite } from '../domain/access.js';
import type { ClientView } from '../domain/client.js';
import { displayName, sortKey, toClientView } from '../domain/client.js';
import { parseClientPatch } from '../contract/client-body.js';
import { parseCuit } from '../domain/cuit.js';
import { invalid, notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { ClientChanges, Ports } from '../ports/index.js';
import { findRepresentative } from './find-representative.js';

type Deps = Pick<Ports, 'clients' | 'secretBox' | 'keyIdentity' | 'clock'>;

// docs/api.md, Writes: merge patch (RFC 7396) of a client the principal manages. Unsent fields and
// tags stay; a new name recomputes the shown name and its sort key; a new key is sealed.
// The body's own faults answer 400 before the CUIT is looked up (so a foreign CUIT cannot be
// told apart); the faults that depend on the client's type come after it is found. The panel
// edits with `channel` 'panel' (create-client.ts).
export const updateClient = async (deps: Deps, principal: Principal, cuitInput: string, body: unknown, channel: WriteChannel = 'api'): Promise<ClientView> => {

    assertMayWrite(principal, channel);
    const cuit = parseCuit(cuitInput);
    const general = parseClientPatch(body, null);
    const failures = [...(cuit ? [] : [messages.field.cuitPath]), ...general.failures];
    if (failures.length) {
        throw invalid(failures, general.fields);
    }

    const client = await deps.clients.findVisible(principal, cuit!);
    if (!client) {
        throw notFound();
    }

    const { patch, failures: typeFailures, fields } = parseClientPatch(body, client.tipo);
    if (typeFailures.length) {
        throw invalid(typeFailures, fields);
    }

    const changes: ClientChanges = {};
    if (patch.representante !== undefined) {
        changes.representativeId = (await findRepresentative(deps, principal, patch.representante)).id;
    }

    if (patch.nombre !== undefined || patch.apellido !== undefined || patch.razonSocial !== undefined) {
        const names = {
            nombre: patch.nombre ?? client.nombre,
            apellido: patch.apellido ?? client.apellido,
            razonSocial: patch.razonSocial ?? client.razonSocial
        };
        const name = displayName({ tipo: client.tipo, ...names });
        Object.assign(changes, client.tipo === 'persona-fisica' ? { nombre: names.nombre!, apellido: names.apellido! } : { razonSocial: names.razonSocial! });
        changes.displayName = name;
        changes.sortName = sortKey(name);
    }

    if (patch.email !== undefined) {
        changes.email = patch.email;
    }

    if (patch.telefono !== undefined) {
        changes.telefono = patch.telefono;
    }

    if (patch.claveArca !== undefined) {
        changes.sealedKey = deps.secretBox.seal(patch.claveArca);
        changes.keyDigest = await deps.keyIdentity.of(client.cuit, patch.claveArca);
    }

    const outcome = await deps.clients.update(client.id, changes, deps.clock.now().getTime());
    if (outcome.status === 'absent') {
        throw notFound();
    }

    if (outcome.status === 'representative_gone') {
        throw invalid([messages.clientWrite.representativeNotFound], { representante: messages.clientWrite.representativeNotFound });
    }

    return toClientView(outcome.client);
};
