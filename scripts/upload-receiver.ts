/**
 * The upload receiver process, started by scripts/serve.ts beside the app
 * server (lib/http/upload-receiver, decision 026). Not run by hand.
 */
import { runUploadReceiver } from '../lib/http/upload-receiver/receiver';

runUploadReceiver();
