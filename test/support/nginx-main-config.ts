// nginx's main configuration for a test or bench: one worker, in the foreground, every file in `folder` (pid, logs,
// temporary bodies), root's own user when run as root, and `http` as the body of its `http` block.
export function nginxMainConfig(folder: string, http: string): string {
  return `daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
${http}
}
`;
}
