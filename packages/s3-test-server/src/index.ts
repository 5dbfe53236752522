export {
  type S3rverEnv,
  type S3rverRequest,
  type StartS3rverOptions,
  startS3rver,
  type TestS3rver,
} from './s3rver';
