import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository.js';

/**
 * Who owns each key: the one thing separation of duties asks of the keys (an approver may not
 * decide a call their own key asked for). A narrow port, so the approvals lib depends on this
 * question and not on the key service.
 */
@Injectable()
export class KeyOwners {
  constructor(private readonly keys: ApiKeyRepository) {}

  /**
   * The person who owns each of `principalIds` that is a key with a recorded owner; a person's own
   * principal id (`user`) stands for itself and is not in the map.
   */
  personsOf(principalIds: readonly string[]): Promise<Map<string, string>> {
    return this.keys.ownersOf(principalIds.filter((id) => id.startsWith('key_')));
  }
}
