import { NetworkSettingsSchema } from '../../schemas/network';

/**
 * `Network.enable` parameters of the recorder's debugger session. Chrome keeps response bodies in the
 * session's buffer until `Network.getResponseBody` reads them: each up to the largest body the
 * `network.maxBodyBytes` setting allows (so one over the cap can still be hashed), 16 MiB in all (the
 * oldest go first; DevTools asks for 100 MiB), and request bodies up to 64 KiB inline in
 * `requestWillBeSent` (a larger one is left out as `too_large`). Set once per session: a change of
 * `network.bodies` changes what is read, not what Chrome buffers.
 */
export const NETWORK_ENABLE_PARAMS = {
  maxTotalBufferSize: 16 * 1024 * 1024,
  maxResourceBufferSize: NetworkSettingsSchema.shape.maxBodyBytes.unwrap().maxValue ?? 4 * 1024 * 1024,
  maxPostDataSize: 64 * 1024,
};
