// zlib, for inflating gzip-compressed answers in ExperimentClient's own HTTP transport (Linux).
#include <zlib.h>
