@_exported import PlayheadAudio
@_exported import PlayheadCore
@_exported import PlayheadVideo
