package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.Descriptors;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;

/** What gRPC server reflection reads of a service: its protobuf descriptor and file. */
public class ServiceSchema implements ProtoServiceDescriptorSupplier {

    private final Descriptors.ServiceDescriptor service;

    public ServiceSchema(Descriptors.ServiceDescriptor service) {
        this.service = service;
    }

    @Override
    public final Descriptors.FileDescriptor getFileDescriptor() {
        return service.getFile();
    }

    @Override
    public final Descriptors.ServiceDescriptor getServiceDescriptor() {
        return service;
    }
}
