export {
  type CrtOutcome,
  type CrtWorker,
  crtResultFor,
  PROVIDER_FAILURE,
  startCrtWorker,
} from './crt-worker';
export {
  type PlatformServices,
  type PlatformServicesOptions,
  startPlatformServices,
} from './platform-services';
export { PII_RESULT_OF_X, type ReportBody, type RunDriver, runDriver } from './run-driver';
export {
  startTestPlatform,
  type TestClient,
  type TestPlatform,
  type TestPlatformOptions,
} from './test-platform';
export { type UploadedFile, uploadFile } from './upload-file';
export {
  type DataHandler,
  type SeenRequest,
  startUploadsDataRecorder,
  type UploadsDataRecorder,
} from './uploads-data-recorder';
