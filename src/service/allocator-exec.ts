// Imported first by src/main.ts, so the process starts again with the allocator settings
// (./allocator.ts) before the rest of the service is evaluated.
import { withAllocatorSettings } from './allocator.ts';

withAllocatorSettings();
