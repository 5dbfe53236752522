// The uploads service's internal HTTP server, as every web process calls it (@svc/http-kit): the
// dashboard's template uploads and downloads use it too.
export {
  ClientGoneError,
  callUploadsData,
  forwardedHeaders,
  readUpstreamJson,
  relayArtifactContent,
  relayedError,
  relayHeaders,
  type UploadsDataTarget,
  type UpstreamCall,
  type UpstreamExchange,
} from '@svc/http-kit';
