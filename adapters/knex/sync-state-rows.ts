import type { HealthState, SystemRecord } from '../../core/domain/health.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import { toNullableNumber } from './column-values.js';

// A sync_states row as the service reads it: what the sync recorded of one system.
export const syncStateOf = (row: Record<string, unknown>): SystemRecord => ({
    system: row.system as SyncSystem,
    syncedAt: toNullableNumber(row.synced_at),
    lastAttemptAt: toNullableNumber(row.last_attempt_at),
    lastError: row.last_error as string | null,
    lastState: (row.last_state ?? null) as HealthState | null,
    failingSince: toNullableNumber(row.failing_since)
});
