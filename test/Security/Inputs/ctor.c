/* A user's shared object whose constructor leaves a marker file: if it
 * exists afterwards, a root process loaded the user's code. Built with
 * -DMARKER='"path"'. */
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_marker(void)
{
	int fd = open(MARKER, O_WRONLY | O_CREAT, 0644);

	if (fd >= 0)
		close(fd);
}
