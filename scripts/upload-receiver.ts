/**
 * The upload receiver process, started by scripts/serve.ts beside the app
 * server (lib/front/upload-receiver, decision 026). Not run by hand.
 */
import { runUploadReceiver } from '../lib/front/upload-receiver/receiver';

runUploadReceiver();
