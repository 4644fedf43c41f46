import type { ProcessRecord, SignerRecord } from './repository.js';

/** A process with what its answer shows. */
export interface ProcessView {
  process: ProcessRecord;
  /** Its state as of now: a `signing` process past its expiry is `expired` (the runner writes it a moment later). */
  state: string;
  signers: SignerRecord[];
  organizations: { id: string; name: string }[];
  sender: { id: string; firstName: string; lastName: string } | null;
}

/** A signer with its process's state, as its answer needs (`signing_url` is shown while it may sign). */
export interface SignerView {
  signer: SignerRecord;
  processState: string;
  clientId: string;
}
