# edgegrid's build entry point.
#
#   make build    static binaries amd64/edgegrid, arm64/edgegrid, arm32v7/edgegrid and the
#                 FROM-scratch images' file tree in build/rootfs/; prints the binary sizes
#   make images   build, then the three images with podman; prints the image sizes
#   make test     the README's test command
#   make clean    remove what build and images made (not the images)
#
# Everything builds offline: the Dockerfiles start FROM scratch and only COPY what `make build` staged.

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
GO      ?= go
LDFLAGS := -s -w -buildid= -X main.version=$(VERSION)

# The CA bundle the images trust for outgoing HTTPS (webhooks, cloud Event Grid), taken from the
# build host. Debian/Ubuntu path by default; Fedora/RHEL: /etc/pki/tls/certs/ca-bundle.crt.
CA_BUNDLE ?= /etc/ssl/certs/ca-certificates.crt
ROOTFS    := build/rootfs

# The container user: UID/GID 2000 "eventgriduser", as in the original module, so host directories
# already chown'ed for /app/metadataDb keep working.
APP_UID := 2000
APP_GID := 2000

# Image builds. The default runs podman the way it works without a daemon on a sandboxed host
# (vfs storage, runc, cgroupfs); on a workstation `make images CONTAINER=podman`, or with Docker
# `make images CONTAINER=docker BUILD_FLAGS=`. --format docker keeps HEALTHCHECK, which podman's
# default OCI format drops; --layers=false leaves no intermediate images behind.
CONTAINER    ?= podman --storage-driver vfs --runtime runc --cgroup-manager cgroupfs
BUILD_FLAGS  ?= --format docker --layers=false
IMAGE        ?= edgegrid
TAG          ?= $(VERSION)

# IoT Edge platform name → Go target, Docker platform, output folder.
PLATFORMS := amd64 arm64v8 arm32v7
goenv_amd64   := GOARCH=amd64
goenv_arm64v8 := GOARCH=arm64
goenv_arm32v7 := GOARCH=arm GOARM=7
platform_amd64   := linux/amd64
platform_arm64v8 := linux/arm64
platform_arm32v7 := linux/arm/v7
dir_amd64   := amd64
dir_arm64v8 := arm64
dir_arm32v7 := arm32v7

.PHONY: build binaries rootfs sizes images image-sizes test clean FORCE

build: binaries rootfs
	@$(MAKE) --no-print-directory sizes

binaries: $(addprefix binary-,$(PLATFORMS))

binary-%: FORCE
	CGO_ENABLED=0 GOOS=linux $(goenv_$*) $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(dir_$*)/edgegrid ./module

# rootfs stages what a FROM-scratch image lacks: the CA bundle, passwd/group entries for the
# container user, and the empty, user-owned directories the original's volume binds target.
rootfs:
	rm -rf $(ROOTFS)
	mkdir -p $(ROOTFS)/etc/ssl/certs $(ROOTFS)/app/metadataDb $(ROOTFS)/app/eventsDb
	cp $(CA_BUNDLE) $(ROOTFS)/etc/ssl/certs/ca-certificates.crt
	printf 'root:x:0:0:root:/root:/sbin/nologin\neventgriduser:x:$(APP_UID):$(APP_GID):Event Grid module:/app:/sbin/nologin\n' >$(ROOTFS)/etc/passwd
	printf 'root:x:0:\neventgriduser:x:$(APP_GID):\n' >$(ROOTFS)/etc/group
	chmod 0644 $(ROOTFS)/etc/passwd $(ROOTFS)/etc/group $(ROOTFS)/etc/ssl/certs/ca-certificates.crt
	chmod 0755 $(ROOTFS)/app $(ROOTFS)/app/metadataDb $(ROOTFS)/app/eventsDb

sizes:
	@echo "binary sizes ($(VERSION)):"
	@for f in $(foreach p,$(PLATFORMS),$(dir_$p)/edgegrid); do \
	  size=$$(stat -c '%s' $$f) || exit 1; echo $$size | awk -v f=$$f '{printf "  %-18s %10d bytes  %5.1f MiB\n", f, $$1, $$1/1048576}'; \
	done

images: build
	@for p in $(PLATFORMS); do $(MAKE) --no-print-directory image-$$p || exit 1; done
	@$(MAKE) --no-print-directory image-sizes

# image-<platform> builds one image from what `make build` staged.
image-%: FORCE
	$(CONTAINER) build $(BUILD_FLAGS) --platform $(platform_$*) --build-arg VERSION=$(VERSION) \
	  -f Dockerfile.$* -t $(IMAGE):$(TAG)-$* .

image-sizes:
	@echo "image sizes ($(IMAGE):$(TAG)-*):"
	@for p in $(PLATFORMS); do \
	  size=$$($(CONTAINER) image inspect --format '{{.Size}}' $(IMAGE):$(TAG)-$$p) || exit 1; \
	  echo $$size | awk -v i=$(IMAGE):$(TAG)-$$p '{printf "  %-36s %10d bytes  %5.1f MiB\n", i, $$1, $$1/1048576}'; \
	done

test:
	$(GO) vet ./... && $(GO) test -race -parallel 4 -timeout 20m ./...

clean:
	rm -rf build amd64/edgegrid arm64/edgegrid arm32v7/edgegrid

FORCE:
