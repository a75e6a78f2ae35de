import { hlsFfmpegArgs, ladderFor } from '@/lib/server/media/hls';

const heights = (sourceHeight: number) => ladderFor(sourceHeight).map((r) => r.height);

describe('HLS ladder', () => {
  it.each([
    [2160, [240, 360, 720, 1080]],
    [1080, [240, 360, 720, 1080]],
    [1079, [240, 360, 720]],
    [720, [240, 360, 720]],
    [480, [240, 360]],
    [360, [240, 360]],
    [240, [240]],
  ])('a %p px source gets %p', (source, expected) => {
    expect(heights(source)).toEqual(expected);
  });

  it('never goes above the source: below 240 px one rendition at the source height, rounded down to even', () => {
    expect(ladderFor(239)).toEqual([{ name: '238p', height: 238, videoKbps: 390, audioKbps: 64 }]);
    expect(heights(181)).toEqual([180]);
    expect(heights(2)).toEqual([2]);
  });

  it('uses the planned bitrates and names', () => {
    expect(ladderFor(1080)).toEqual([
      { name: '240p', height: 240, videoKbps: 400, audioKbps: 64 },
      { name: '360p', height: 360, videoKbps: 800, audioKbps: 96 },
      { name: '720p', height: 720, videoKbps: 2800, audioKbps: 128 },
      { name: '1080p', height: 1080, videoKbps: 5000, audioKbps: 128 },
    ]);
  });

  it.each([0, 1, -5, Number.NaN])('refuses a source %p px high', (source) => {
    expect(() => ladderFor(source)).toThrow(RangeError);
  });
});

describe('HLS ffmpeg command', () => {
  const value = (args: string[], flag: string) => args[args.indexOf(flag) + 1];
  const hd = { height: 720, width: 1280, durationSeconds: 30, audioCodec: 'aac', demuxer: 'mov' } as const;

  it('splits once, maps one audio per rendition and names the variants', () => {
    const args = hlsFfmpegArgs('/in.mp4', '/out', hd);
    expect(value(args, '-filter_complex')).toBe(
      '[0:v:0]split=3[s0][s1][s2];[s0]scale=-2:240,format=yuv420p[v0];[s1]scale=-2:360,format=yuv420p[v1];[s2]scale=-2:720,format=yuv420p[v2]',
    );
    expect(value(args, '-var_stream_map')).toBe('v:0,a:0,name:240p v:1,a:1,name:360p v:2,a:2,name:720p');
    expect(args.filter((a) => a === '0:a:0')).toHaveLength(3);
    expect(value(args, '-b:v:2')).toBe('2800k');
    expect(value(args, '-b:a:0')).toBe('64k');
    expect(value(args, '-hls_time')).toBe('2');
    expect(value(args, '-master_pl_name')).toBe('master.m3u8');
    expect(value(args, '-hls_segment_filename')).toBe('/out/%v/seg_%05d.ts');
    expect(args.at(-1)).toBe('/out/%v/index.m3u8');
  });

  it('reads the source only as the container the probe found, from a file', () => {
    const args = hlsFfmpegArgs('/in.mp4', '/out', hd);
    const input = args.indexOf('-i');
    expect(args.slice(input - 6, input + 2)).toEqual([
      '-f',
      'mov',
      '-format_whitelist',
      'mov,matroska,avi,mpegts,mpeg,flv,ogg,asf',
      '-protocol_whitelist',
      'file',
      '-i',
      'file:/in.mp4',
    ]);
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
  });

  it('leaves audio out for a silent source', () => {
    const args = hlsFfmpegArgs('/in.mp4', '/out', {
      height: 240,
      width: 426,
      durationSeconds: 30,
      audioCodec: null,
      demuxer: 'matroska',
    });
    expect(value(args, '-var_stream_map')).toBe('v:0,name:240p');
    expect(args.some((a) => a.startsWith('-b:a') || a === '0:a:0' || a === '-c:a')).toBe(false);
  });

  it('feeds the storyboard and the preview clip from the same decode when asked', () => {
    const args = hlsFfmpegArgs('/in.mp4', '/out', hd, { previewsDir: '/prev' });
    const graph = value(args, '-filter_complex')!;
    expect(graph.startsWith('[0:v:0]split=5[s0][s1][s2][s3][s4];')).toBe(true);
    expect(graph).toContain('[s3]fps=1/2:round=near,scale=160:90,tile=10x2[storyboard]');
    expect(graph).toMatch(/\[s4\]fps=24,select='between\(t\\,3\\,4\.2\)\+.*\[preview\]$/);
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    // The ladder's encoder options come before its own output; the previews' outputs follow with theirs.
    expect(args.indexOf('/out/%v/index.m3u8')).toBeLessThan(args.indexOf('[storyboard]'));
    expect(args.slice(-2)).toEqual(['+faststart', '/prev/preview.mp4']);
    expect(args).toContain('/prev/storyboard.jpg');
  });
});
